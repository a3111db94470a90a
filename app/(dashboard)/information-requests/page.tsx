import { suspended } from "@/components/ui/suspended";
import { InformationRequestList } from "./information-request-list";

export const metadata = { title: "Information requests" };

export default suspended(InformationRequestList);
