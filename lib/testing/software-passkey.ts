import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { ORIGIN } from "@/lib/testing/http";
import type { PasskeyAssertion, PasskeyAttestation } from "@/lib/passkeys/schemas";

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const b64 = (data: Uint8Array) => Buffer.from(data).toString("base64url");

/**
 * A software authenticator for route tests: a P-256 key pair and the two WebAuthn answers built by
 * hand ("none" attestation, ES256 assertions), so a test can drop user verification, set the
 * signature counter, or send one assertion twice, which a real authenticator never lets it do.
 */
export class SoftwarePasskey {
  readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  readonly credentialId = b64(randomBytes(16));
  counter = 0;

  constructor(
    readonly origin = ORIGIN,
    readonly rpId = new URL(origin).hostname,
  ) {}

  /** The answer to registration options with `challenge`. */
  attestation({ challenge, userVerified = true }: { challenge: string; userVerified?: boolean }): PasskeyAttestation {
    const clientDataJSON = this.clientData("webauthn.create", challenge);
    const credentialId = Buffer.from(this.credentialId, "base64url");
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID: none
      Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
      credentialId,
      this.cosePublicKey(),
    ]);
    const authData = this.authData((userVerified ? UP | UV : UP) | AT, 0, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to authentication options with `challenge`; the counter goes up by one unless `counter` says otherwise. */
  assertion({
    challenge,
    userVerified = true,
    counter = this.counter + 1,
    origin = this.origin,
  }: {
    challenge: string;
    userVerified?: boolean;
    counter?: number;
    origin?: string;
  }): PasskeyAssertion {
    this.counter = Math.max(this.counter, counter);
    const clientDataJSON = this.clientData("webauthn.get", challenge, origin);
    const authData = this.authData(userVerified ? UP | UV : UP, counter);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
      },
      clientExtensionResults: {},
    };
  }

  /** An assertion as the Service-Passkey-Assertion header carries it. */
  static header(assertion: PasskeyAssertion): string {
    return Buffer.from(JSON.stringify(assertion)).toString("base64url");
  }

  private clientData(type: string, challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(flags: number, counter: number, attested = Buffer.alloc(0)) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), count, attested]);
  }

  /** The public key as COSE (EC2, ES256, P-256). */
  private cosePublicKey() {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]),
    );
  }
}
