import { createSign, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Configuration, JWK } from "oidc-provider";

// A real OpenID provider (oidc-provider) on loopback, for the single sign-on tests. Whoever the
// authorization request's login_hint names signs in at once (no login page, consent granted), and
// `users` says what the ID token asserts about them. `tamper` re-signs the next ID tokens the token
// endpoint hands out with claims changed (a wrong audience, issuer) or with another key, so the
// service's checks are tried against tokens a real provider delivered.

export type OidcUser = { email?: string; email_verified?: boolean };
export type Tamper = { claims?: Record<string, unknown>; foreignKey?: boolean } | null;

export type TestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  users: Map<string, OidcUser>;
  setTamper(tamper: Tamper): void;
  close(): Promise<void>;
};

const CLIENT_ID = "compliance-service";
const CLIENT_SECRET = "test-client-secret-0123456789abcdef";

export async function startTestProvider({ redirectUris }: { redirectUris: string[] }): Promise<TestProvider> {
  const { default: Provider } = await import("oidc-provider");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "test-key", alg: "RS256", use: "sig" };
  const users = new Map<string, OidcUser>();
  let tamper: Tamper = null;
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, configuration({ redirectUris, users, jwk }));
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (tamper && ctx.path === "/token" && body?.id_token) {
      body.id_token = resign(body.id_token, tamper, tamper.foreignKey ? foreignKey() : privateKey);
    }
  });
  const callback = provider.callback();
  handler = (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = String(details.params.login_hint ?? "nobody@example.com");
      await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    users,
    setTamper: (next) => {
      tamper = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const foreignKey = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;

/** The ID token with `claims` laid over its own, signed again (RS256, the same key id). */
function resign(idToken: string, tamper: NonNullable<Tamper>, key: KeyObject): string {
  const [header, payload] = idToken.split(".");
  const claims = { ...JSON.parse(Buffer.from(payload!, "base64url").toString()), ...tamper.claims };
  const signingInput = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const signature = createSign("RSA-SHA256").update(signingInput).sign(key).toString("base64url");
  return `${signingInput}.${signature}`;
}

/** Who signs in and what the provider asserts about them; consent taken as given. */
function configuration({
  redirectUris,
  users,
  jwk,
}: {
  redirectUris: string[];
  users: Map<string, OidcUser>;
  jwk: JWK;
}): Configuration {
  return {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: "client_secret_post",
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => {
        const user = users.get(sub) ?? {};
        return { sub, email: user.email ?? sub, email_verified: user.email_verified ?? true };
      },
    }),
    // Consent is taken as given: the grant covers whatever the client asked for.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? "openid"));
      await grant.save();
      return grant;
    },
  };
}
