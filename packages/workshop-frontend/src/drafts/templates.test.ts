import { checkManifest } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { filesFromTemplate, TEMPLATES } from "./templates.ts";

describe("filesFromTemplate", () => {
  it("gives every template's files a valid manifest named after it", () => {
    for (const template of TEMPLATES) {
      const manifest = checkManifest(filesFromTemplate(template.id, "ab12") ?? []);
      expect(manifest.ok && manifest.value.name).toBe(`${template.id}-ab12`);
    }
  });

  it("names each new draft apart", () => {
    const names = new Set(
      Array.from({ length: 20 }, () => {
        const manifest = checkManifest(filesFromTemplate("echo") ?? []);
        return manifest.ok ? manifest.value.name : "";
      }),
    );
    expect(names.size).toBeGreaterThan(1);
  });

  it("has nothing for an unknown template", () => {
    expect(filesFromTemplate("nope")).toBeUndefined();
  });
});
