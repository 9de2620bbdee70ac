import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SealedValueForm } from "./SealedValueForm.tsx";

const render = (wide: boolean) =>
  renderToStaticMarkup(
    <SealedValueForm
      label="Set a thing"
      name={{ label: "Name", initial: "GIVEN", maxLength: 64, placeholder: "EXAMPLE", wide }}
      value={{ label: "Value", hintId: "thing-hint", hint: "Never shown again." }}
      submit={{ idle: "Set thing", busy: "Setting…" }}
      check={(name, value) => ({ ok: true, value: { name, value } })}
      send={async () => "set"}
      onError={() => {}}
      onNotice={() => {}}
    />,
  );

/** Each input's markup, in order: React writes attributes in its own order, so tests look for each one. */
const inputs = (html: string) => html.match(/<label[^>]*>[^<]*<input[^>]*>/g) ?? [];

describe("SealedValueForm", () => {
  it("labels both fields, seals the value in a password field described by its hint, and focuses the name", () => {
    const html = render(false);
    expect(html).toContain('<form class="flex flex-col gap-1" aria-label="Set a thing">');
    const [name, value, ...more] = inputs(html);
    expect(more).toEqual([]);
    expect(name).toMatch(/^<label[^>]*>Name<input/);
    for (const attribute of [
      'value="GIVEN"',
      'maxLength="64"',
      'placeholder="EXAMPLE"',
      'autoComplete="off"',
      "data-autofocus",
    ])
      expect(name).toContain(attribute);
    expect(value).toMatch(/^<label[^>]*>Value<input/);
    for (const attribute of [
      'type="password"',
      'value=""',
      'autoComplete="new-password"',
      'aria-describedby="thing-hint"',
    ])
      expect(value).toContain(attribute);
    expect(value).not.toContain("data-autofocus");
    expect(html).toContain(
      '<span id="thing-hint" class="text-xs text-zinc-600 dark:text-zinc-400">Never shown again.</span>',
    );
    expect(html).toMatch(/<button type="submit"[^>]*>Set thing<\/button>/);
  });

  it("lets a wide name field grow with the row", () => {
    const [narrow] = inputs(render(false));
    const [wide] = inputs(render(true));
    expect(narrow).toMatch(
      /^<label class="flex items-center gap-1 text-xs">Name<input class="[^"]*dark:border-zinc-700"/,
    );
    expect(wide).toMatch(/^<label class="flex flex-1 items-center gap-1 text-xs">Name<input class="[^"]* flex-1"/);
  });
});
