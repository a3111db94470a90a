import { permanentRedirect } from "next/navigation";

// Where people look for an API reference besides /docs.
export default function ReferenceRedirect() {
  permanentRedirect("/docs");
}
