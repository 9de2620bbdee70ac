import type { Page } from "@playwright/test";
import { createRpcClient, type Session } from "@gadgets/workshop-shared";

/** A fresh workspace driven from Node, as a backend would; the client is released after `use`. */
export async function withWorkspace<T>(use: (session: Session, token: string) => Promise<T>): Promise<T> {
  const url = process.env.WORKSHOP_E2E_URL ?? "";
  const boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url, token });
  try {
    return await use(client.getSession() as unknown as Session, token);
  } finally {
    client[Symbol.dispose]();
  }
}

export const gadgetFiles = (name: string, code: string) => [
  { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts" }) },
  { path: "index.ts", content: code },
];

/** The page's workspace (made by its first visit), driven from Node as a backend would. */
export async function pageSession<T>(page: Page, use: (session: Session) => Promise<T>): Promise<T> {
  const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
  try {
    return await use(client.getSession() as unknown as Session);
  } finally {
    client[Symbol.dispose]();
  }
}
