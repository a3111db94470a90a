import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

// Rendered per request, never prerendered: the pages' CSP (server.mjs; proxy.dev.ts under `next dev`) allows only scripts carrying
// this request's nonce, and Next.js can put the nonce on its scripts only when it renders the page.
export const dynamic = "force-dynamic";

export const metadata = { title: { default: "Platform Compliance", template: "%s · Platform Compliance" } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
