import { EmployeesList } from "./employees-list";

export const metadata = { title: "Employees" };

export default function EmployeesPage() {
  return <EmployeesList />;
}
