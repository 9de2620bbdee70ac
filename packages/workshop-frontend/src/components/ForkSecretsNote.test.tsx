import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FORK_SECRETS_NOTE_ID, ForkSecretsNote } from "./ForkSecretsNote.tsx";

describe("ForkSecretsNote", () => {
  it("is a note a Fork button can point at, its words written as text", () => {
    const html = renderToStaticMarkup(<ForkSecretsNote text={'Set A <img src="x"> & B.'} />);
    expect(html).toContain(`id="${FORK_SECRETS_NOTE_ID}"`);
    expect(html).toContain('role="note"');
    expect(html).toContain(">Set A &lt;img src=&quot;x&quot;&gt; &amp; B.</p>");
    expect(html).not.toContain("<img");
  });
});
