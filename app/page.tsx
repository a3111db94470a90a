export default function Home() {
  return <main>Platform Compliance</main>;
}
