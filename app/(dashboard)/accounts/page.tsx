import { AccountsList } from "./accounts-list";

export const metadata = { title: "Accounts" };

export default function AccountsPage() {
  return <AccountsList />;
}
