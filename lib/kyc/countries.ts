import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";

// Only English is registered, explicitly: the package's Node entry loads every locale through a
// dynamic require (which bundlers cannot follow) and its browser entry loads none, so this one
// import behaves the same under vitest, the Next.js server and the dashboard's client bundle.
countries.registerLocale(en);

const alpha2 = new Set(Object.keys(countries.getAlpha2Codes()));

/** Whether `code` is an ISO 3166-1 alpha-2 code as written in this API: two upper-case letters ("DE", not "de" or "DEU"). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && alpha2.has(code);
}

/** The English short name of an alpha-2 code ("DE" -> "Germany"), or undefined for an unknown code. */
export function countryName(code: string): string | undefined {
  return isCountryCode(code) ? countries.getName(code, "en") : undefined;
}

let options: { code: string; name: string }[] | undefined;

/** Every alpha-2 code with its English name, sorted by name: the choices of the dashboard's country selects. */
export function countryOptions(): { code: string; name: string }[] {
  options ??= [...alpha2]
    .map((code) => ({ code, name: countries.getName(code, "en") ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
  return options;
}
