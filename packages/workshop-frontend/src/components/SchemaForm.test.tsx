import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formFields } from "../runs/schema-form.ts";
import { SchemaForm } from "./SchemaForm.tsx";

const fields =
  formFields({
    type: "object",
    required: ["city"],
    properties: {
      city: { type: "string", description: "<img src=x onerror=alert(1)>" },
      units: { enum: ["metric", "imperial"], default: "metric" },
      detailed: { type: "boolean" },
      where: { type: "object", properties: { lat: { type: "number" } } },
    },
  }) ?? [];

describe("SchemaForm", () => {
  it("labels every control, marks the required, and shows descriptions and problems as text", () => {
    const html = renderToStaticMarkup(
      <SchemaForm
        fields={fields}
        root={{ city: "Oslo", units: "kelvin" }}
        messages={new Map([["$.units", ['$.units: expected one of "metric", "imperial"']]])}
        unplaced={["$: <b>whole</b>"]}
        onPayloadText={() => {}}
      />,
    );
    expect(html).toContain("(required)");
    expect(html).toContain('aria-required="true"');
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;b&gt;whole&lt;/b&gt;");
    expect(html).toContain("(not set; default: &quot;metric&quot;)");
    // A value that is not one of the choices is still shown, and its problem beside it.
    expect(html).toContain("(not one of the choices)");
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain("<fieldset");
    expect(html).toContain('value="Oslo"');
    expect(html.match(/<label/g)?.length).toBe(4);
  });
});
