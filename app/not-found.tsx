import Link from "next/link";

export const metadata = { title: "Page not found" };

// Next.js's built-in 404 page carries an inline <style> without the CSP nonce; this one uses the app's own style sheet.
export default function NotFound() {
  return (
    <main className="center-page">
      <div className="card stack">
        <h1>Page not found</h1>
        <p className="muted">There is nothing at this address.</p>
        <Link href="/">Go to the dashboard</Link>
      </div>
    </main>
  );
}
