import { describe, expect, it } from "vitest";
import { firstVisitAction } from "./first-visit.ts";

describe("firstVisitAction", () => {
  it("creates the example only for a new browser with an empty workspace", () => {
    expect(firstVisitAction({ welcomed: false, activeDraftId: undefined, draftCount: 0 })).toBe("create-example");
    expect(firstVisitAction({ welcomed: false, activeDraftId: undefined, draftCount: undefined })).toBe("wait");
    expect(firstVisitAction({ welcomed: false, activeDraftId: undefined, draftCount: 2 })).toBe("nothing");
    expect(firstVisitAction({ welcomed: false, activeDraftId: "d1", draftCount: 0 })).toBe("nothing");
    expect(firstVisitAction({ welcomed: true, activeDraftId: undefined, draftCount: 0 })).toBe("nothing");
  });
});
