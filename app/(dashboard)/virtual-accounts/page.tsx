import { suspended } from "@/components/ui/suspended";
import { VirtualAccountsView } from "./virtual-accounts-view";

export const metadata = { title: "Virtual accounts" };

export default suspended(VirtualAccountsView);
