import { suspended } from "@/components/ui/suspended";
import { DelegatedUsersView } from "./delegated-users-view";

export const metadata = { title: "Delegated users" };

export default suspended(DelegatedUsersView);
