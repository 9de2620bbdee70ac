import { describe, expect, it } from "vitest";
import { isCredentialName, isCredentialValue, mentionsCredentialField } from "./credential-names.ts";

describe("isCredentialName", () => {
  it.each([
    "authorization",
    "Proxy-Authorization",
    "x-api-key",
    "apikey",
    "access_token",
    "client-secret",
    "password",
    "key",
    "X-Auth-Key",
    "Authentication",
    "auth_key",
    "pwd",
    "jwt",
    "sessionid",
    "sessionId",
    "credentials",
    "x-functions-key",
    "Ocp-Apim-Subscription-Key",
    "csrftoken",
  ])("redacts %s", (name) => expect(isCredentialName(name)).toBe(true));
  it.each(["content-type", "x-hub-signature-256", "stripe-signature", "page", "author", "keyboard", "x-request-id"])(
    "keeps the header %s",
    (name) => expect(isCredentialName(name, "header")).toBe(false),
  );
  it.each(["page", "author", "keyboard", "zip_code", "status_code", "passenger", "monkey"])(
    "keeps the field %s",
    (name) => expect(isCredentialName(name)).toBe(false),
  );
  it.each(["code", "sig", "X-Amz-Signature"])("redacts the field %s, not the header", (name) => {
    expect(isCredentialName(name)).toBe(true);
    expect(isCredentialName(name, "header")).toBe(false);
  });
});

describe("isCredentialValue and mentionsCredentialField", () => {
  it("knows an authorization scheme's value and a credential-shaped field in text", () => {
    expect(isCredentialValue("Bearer abc")).toBe(true);
    expect(isCredentialValue("basic dXNlcg==")).toBe(true);
    expect(isCredentialValue("Bearer")).toBe(false);
    expect(isCredentialValue("text/plain")).toBe(false);
    expect(mentionsCredentialField('{"api_key": "x",}')).toBe(true);
    expect(mentionsCredentialField("password=x")).toBe(true);
    expect(mentionsCredentialField("the key to success")).toBe(false);
    expect(mentionsCredentialField('"client_secret" : "x"')).toBe(true);
    // A stranger's body of one long word: answered in one pass, not one per place it could start.
    expect(mentionsCredentialField("token".repeat(100_000))).toBe(false);
    expect(mentionsCredentialField(`${"token".repeat(100_000)}=`)).toBe(true);
  });
});
