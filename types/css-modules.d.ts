// CSS modules' class names, for the type check that runs before `next build` writes next-env.d.ts
// (which is not committed) on a fresh clone.
declare module "*.module.css" {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
