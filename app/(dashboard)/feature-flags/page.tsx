import { FeatureFlagsForm } from "./feature-flags-form";

export const metadata = { title: "Feature flags" };

export default function FeatureFlagsPage() {
  return <FeatureFlagsForm />;
}
