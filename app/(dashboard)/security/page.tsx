import { TwoFactorSetup } from "./two-factor-setup";

export const metadata = { title: "Security" };

export default function SecurityPage() {
  return <TwoFactorSetup />;
}
