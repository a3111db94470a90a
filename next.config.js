// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and WebAssembly packages stay out of the bundle and load from node_modules at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
};

module.exports = nextConfig;
