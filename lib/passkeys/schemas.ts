import { z } from "zod";
import { text } from "@/lib/contract/text";
import { idSchema } from "@/lib/ids/schema";

// Passkeys (WebAuthn) as the API takes and gives them. Client-safe (zod only): the dashboard's forms
// and the server check a passkey's name and a browser's answer with the same schemas.

/** base64url as WebAuthn's JSON encodes binary fields (padding tolerated). */
const base64url = (max: number) =>
  text()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, "must be base64url");

/** The extension outputs the service reads (none decide anything); others are dropped. */
const extensionResults = z
  .object({ appid: z.boolean().optional(), credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .default({});

const transportsSchema = z.array(text().max(32)).max(10);

/** The credential an answer comes from, as both ceremonies name it. */
const credentialOf = {
  id: base64url(1024).min(1),
  rawId: base64url(1024).min(1),
  type: z.literal("public-key"),
};

/** What a browser's `navigator.credentials.get()` answers, as @simplewebauthn/browser serialises it. */
export const passkeyAssertionSchema = z
  .object({
    ...credentialOf,
    response: z.object({
      clientDataJSON: base64url(8192),
      authenticatorData: base64url(8192),
      // ML-DSA (post-quantum) signatures take 2,420 to 4,627 bytes; @simplewebauthn/server offers
      // ML-DSA-44 first where the runtime has it (Node 24), and Chromium's authenticators take it.
      signature: base64url(8192),
      userHandle: base64url(1024).optional(),
    }),
    clientExtensionResults: extensionResults,
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .meta({
    id: "PasskeyAssertion",
    description: "A WebAuthn assertion (AuthenticationResponseJSON) answering a challenge from an options endpoint.",
  });

/** What a browser's `navigator.credentials.create()` answers, as @simplewebauthn/browser serialises it. */
export const passkeyAttestationSchema = z
  .object({
    ...credentialOf,
    response: z.object({
      clientDataJSON: base64url(8192),
      attestationObject: base64url(65536),
      transports: transportsSchema.optional(),
      authenticatorData: base64url(65536).optional(),
      publicKey: base64url(8192).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
    }),
    clientExtensionResults: extensionResults,
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .meta({
    id: "PasskeyAttestation",
    description: "A WebAuthn attestation (RegistrationResponseJSON) answering POST /v1/employees/passkeys/options.",
  });

export const passkeyNameSchema = text().trim().min(1, "is required").max(100);

export const registerPasskeyInput = z
  .object({ name: passkeyNameSchema, response: passkeyAttestationSchema })
  .meta({ id: "RegisterPasskeyInput" });

export const passkeyParams = z.object({ id: idSchema("pk", "must be a passkey id (pk_...)") });

export const signInPasskeyOptionsInput = z
  .object({ email: text().trim().min(1, "is required").max(254) })
  .meta({ id: "SignInPasskeyOptionsInput" });

export const passkeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: "null until the passkey is first used" }),
  })
  .meta({ id: "Passkey" });

const credentialDescriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

/** PublicKeyCredentialCreationOptionsJSON, for `startRegistration()` of @simplewebauthn/browser. */
export const passkeyRegistrationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(credentialDescriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        residentKey: z.string().optional(),
        userVerification: z.literal("required"),
      })
      .optional(),
    attestation: z.string().optional(),
    extensions: z.object({ credProps: z.boolean().optional() }).optional(),
    hints: z.array(z.string()).optional(),
  })
  .meta({ id: "PasskeyRegistrationOptions" });

/** PublicKeyCredentialRequestOptionsJSON, for `startAuthentication()` of @simplewebauthn/browser. */
export const passkeyAuthenticationOptionsSchema = z
  .object({
    challenge: z.string(),
    timeout: z.number().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(credentialDescriptor).optional(),
    userVerification: z.literal("required"),
    hints: z.array(z.string()).optional(),
  })
  .meta({ id: "PasskeyAuthenticationOptions" });

export type PasskeyAssertion = z.output<typeof passkeyAssertionSchema>;
export type PasskeyAttestation = z.output<typeof passkeyAttestationSchema>;
