import { SecurityView } from "./security-view";

export const metadata = { title: "Security" };

export default function SecurityPage() {
  return <SecurityView />;
}
