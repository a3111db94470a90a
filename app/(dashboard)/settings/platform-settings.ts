import type { ResponseOf } from "@/lib/contract/endpoint";
import type { getSettingsEndpoint } from "@/lib/settings/endpoints";

export type PlatformSettings = ResponseOf<typeof getSettingsEndpoint>;

/** Each platform setting's name and effect, as the page and its save dialog say them. */
/** The switches (on or off) among them. */
export type SwitchSetting = "requireTwoFactor" | "fourEyesApproval";

export const SETTINGS: { name: SwitchSetting; label: string; effect: string }[] = [
  {
    name: "requireTwoFactor",
    label: "Require two-factor authentication",
    effect:
      "Employees without it can only set it up: until they do, every other page and API request is closed to them. API keys are not affected.",
  },
  {
    name: "fourEyesApproval",
    label: "Four-eyes approval",
    effect: "Whoever starts reviewing an information request cannot approve or reject it: a second reviewer decides.",
  },
];
