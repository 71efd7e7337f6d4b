import { describe, expect, it } from "vitest";
import { mermaidEntity, mermaidLabel } from "./mermaid.ts";

describe("values in a Mermaid diagram", () => {
  it("keep plain names as they are", () => {
    expect(mermaidLabel("customer_id")).toBe("customer_id");
    expect(mermaidLabel("Straße Nr. (alt)")).toBe("Straße Nr. (alt)");
    expect(mermaidEntity("sales__order_lines")).toBe("sales__order_lines");
  });

  it("turn every run of characters a diagram or its fence reads into one '_'", () => {
    expect(mermaidLabel('a\n```\n[x](http://evil)\n~~~ %%{init: {}}%% "; }')).toBe(
      "a_x_(http://evil)_ _init: _ _ _",
    );
    expect(mermaidLabel("<img src=x> #quot; &amp;")).toBe("_img src_x_ _quot_ _amp_");
    expect(mermaidLabel("\r\n")).toBe("_");
    expect(mermaidLabel("")).toBe("_");
  });

  it("give entity names no keyword start and no character outside [A-Za-z0-9_-]", () => {
    expect(mermaidEntity("users__x")).toBe("e_users__x");
    expect(mermaidEntity("one__x")).toBe("e_one__x");
    expect(mermaidEntity("Tools__x")).toBe("e_Tools__x");
    expect(mermaidEntity("1st__x")).toBe("e_1st__x");
    expect(mermaidEntity("a.b__c d")).toBe("a_b__c_d");
  });
});
