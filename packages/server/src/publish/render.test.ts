import { describe, expect, it } from "vitest";
import { buildPages } from "./dictionary-pages.ts";
import type { DictionarySnapshot } from "./dictionary-snapshot.ts";
import { renderMarkdown } from "./markdown.ts";
import { renderWikitext } from "./wikitext.ts";

/** A small dictionary: one application, one source, two tables with a foreign key between them. */
function snapshot(): DictionarySnapshot {
  return {
    applications: [
      {
        key: 1,
        name: "Shop",
        description: "Web shop",
        owner: "Sales",
        intro: "Curated | intro",
        editiondetail: null,
      },
    ],
    aspects: [{ key: 2, name: "Operational", description: null }],
    sources: [
      {
        key: 3,
        name: "Shop DB",
        description: "Orders",
        application: 1,
        applicationaspect: 2,
        "applicationaspect:label": "Operational",
        systemenvironment: 4,
        "systemenvironment:label": "prod",
        "systemenvironment.technology": "postgres",
        intro: null,
        editiondetail: null,
      },
    ],
    objects: [
      {
        key: 11,
        name: "orders",
        schema: "sales",
        metadatasource: 3,
        kind: "table",
        description: "One row per order",
        rowestimate: 1200,
        intro: "Read *this* first",
        editiondetail: null,
      },
      {
        key: 10,
        name: "customer",
        schema: "sales",
        metadatasource: 3,
        kind: "table",
        description: null,
        rowestimate: null,
        intro: null,
        editiondetail: null,
      },
    ],
    elements: [
      {
        key: 21,
        dataobject: 11,
        position: 2,
        name: "customer_id",
        datatype: "bigint",
        nullable: false,
        defaultvalue: null,
        primarykey: false,
        foreignkey: "sales.customer.id",
        description: null,
        intro: null,
        editiondetail: null,
      },
      {
        key: 20,
        dataobject: 11,
        position: 1,
        name: "id",
        datatype: "integer",
        nullable: false,
        defaultvalue: "nextval('sales.orders_id_seq'::regclass)",
        primarykey: true,
        foreignkey: null,
        description: "Key",
        intro: null,
        editiondetail: null,
      },
      {
        key: 22,
        dataobject: 10,
        position: 1,
        name: "id",
        datatype: "bigint",
        nullable: false,
        defaultvalue: null,
        primarykey: true,
        foreignkey: null,
        description: null,
        intro: null,
        editiondetail: null,
      },
    ],
    lineage: [],
    profiles: [],
  };
}

describe("dictionary pages", () => {
  it("build a home page, one page per application and per data object, in a stable order", () => {
    expect(buildPages(snapshot()).map((p) => p.id)).toEqual([
      "Home",
      "Application-Shop",
      "Object-3-sales.customer",
      "Object-3-sales.orders",
    ]);
  });

  it("have ids a wiki keeps as they are, told apart by key when two names would meet", () => {
    const s = snapshot();
    const object = (key: number, name: string) => ({ ...s.objects[1], key, name });
    s.objects.push(object(14, "audit_log"), object(13, "audit__log_"), object(15, "a b?"));
    s.objects.push(object(16, "a-b"), object(17, "___"));
    const pages = buildPages(s);
    expect(pages.map((p) => p.id)).toEqual([
      "Home",
      "Application-Shop",
      "Object-3-sales.a-b",
      "Object-3-sales.a-b-16",
      "Object-3-sales.audit_log",
      "Object-3-sales.audit_log-14",
      "Object-3-sales.customer",
      "Object-3-sales.orders",
      "Object-3-sales.unnamed",
    ]);
    expect(renderMarkdown(pages[1])).toContain(
      "| [sales.audit\\_\\_log\\_](Object-3-sales.audit_log) | table |",
    );
    expect(renderMarkdown(pages[1])).toContain(
      "| [sales.audit\\_log](Object-3-sales.audit_log-14) | table |",
    );
  });

  it("are byte-identical for the same data, whatever the order the rows came in", () => {
    const a = buildPages(snapshot()).map(renderMarkdown);
    const shuffled = snapshot();
    shuffled.objects.reverse();
    shuffled.elements.reverse();
    expect(buildPages(shuffled).map(renderMarkdown)).toEqual(a);
  });

  it("render Markdown: curated text first, columns, keys as links, an ER diagram", () => {
    const orders = buildPages(snapshot()).find((p) => p.id === "Object-3-sales.orders");
    expect(renderMarkdown(orders as NonNullable<typeof orders>)).toMatchInlineSnapshot(`
      "# sales.orders

      Read \\*this\\* first

      One row per order

      table in metadata source Shop DB, about 1200 rows

      ## Columns

      | \\# | Name | Type | Nullable | Default | Keys | Description |
      | --- | --- | --- | --- | --- | --- | --- |
      | 1 | id | integer | no | nextval('sales.orders\\_id\\_seq'::regclass) | PK | Key |
      | 2 | customer\\_id | bigint | no |  | FK [sales.customer.id](Object-3-sales.customer) |  |

      ## Relationships

      \`\`\`mermaid
      erDiagram
        sales__orders }o--|| sales__customer : "customer_id"
      \`\`\`

      - [sales.customer](Object-3-sales.customer)
      "
    `);
  });

  it("list a table's indexes, mark its unique columns and show a view's definition as code", () => {
    const s = snapshot();
    s.objects[0].indexes =
      "orders_customer_key UNIQUE (customer_id)\norders_pkey PRIMARY KEY (id)\norders_x_idx (lower(note) DESC) WHERE total > 0";
    s.elements[0].uniquekey = "orders_customer_key";
    s.objects.push({
      ...s.objects[1],
      key: 12,
      name: "big_orders",
      kind: "view",
      definition:
        "SELECT o.id,\r\n    '```' || '</pre> ~~~~ __NOTOC__ & <b>' AS x\n   FROM sales.orders o;",
    });
    const pages = buildPages(s);
    const page = (id: string) => {
      const found = pages.find((p) => p.id === id);
      if (!found) throw new Error(`no page ${id}`);
      return found;
    };
    const orders = renderMarkdown(page("Object-3-sales.orders"));
    expect(orders).toContain(
      "| 2 | customer\\_id | bigint | no |  | FK [sales.customer.id](Object-3-sales.customer), UK orders\\_customer\\_key |  |",
    );
    expect(orders).toContain(
      "## Indexes\n\n| Index |\n| --- |\n| orders\\_customer\\_key UNIQUE (customer\\_id) |\n| orders\\_pkey PRIMARY KEY (id) |\n| orders\\_x\\_idx (lower(note) DESC) WHERE total \\> 0 |\n",
    );
    expect(orders).not.toContain("## Definition");
    const view = renderMarkdown(page("Object-3-sales.big_orders"));
    expect(view).toContain(
      "## Definition\n\n````sql\nSELECT o.id,\n    '```' || '</pre> ~~~~ __NOTOC__ & <b>' AS x\n   FROM sales.orders o;\n````\n",
    );
    expect(view).not.toContain("## Indexes");

    const wikiOrders = renderWikitext("Data Dictionary", page("Object-3-sales.orders"));
    expect(wikiOrders).toContain("|-\n| orders_x_idx (lower(note) DESC) WHERE total &#62; 0\n");
    expect(wikiOrders).toContain(", UK orders_customer_key ||");
    const wikiView = renderWikitext("Data Dictionary", page("Object-3-sales.big_orders"));
    expect(wikiView).toContain(
      "=== Definition ===\n\n<pre>\nSELECT o.id,\n    '```' || '&lt;/pre> &#126;&#126;&#126;&#126; &#95;_NOTOC&#95;_ &amp; &lt;b>' AS x\n   FROM sales.orders o;\n</pre>\n",
    );
  });

  it("say 'not analysed' where a table has no row estimate yet", () => {
    const pages = buildPages(snapshot());
    const customer = pages.find((p) => p.id === "Object-3-sales.customer");
    expect(renderMarkdown(customer as NonNullable<typeof customer>)).toContain(
      "table in metadata source Shop DB, not analysed",
    );
    const application = pages.find((p) => p.blocks.some((b) => b.kind === "table"));
    expect(renderMarkdown(application as NonNullable<typeof application>)).toMatch(
      /\| table \| not analysed \|/,
    );
  });

  it("keep names and comments that hold markup as text, in both dialects", () => {
    const s = snapshot();
    const hostile = "x\r```\n[a](http://evil) <script>alert(1)</script> [[L]] {{T}} '''b''' ~~~~";
    s.objects[0].description = `- ${hostile}`;
    s.elements[0].name = hostile;
    s.elements[0].description = "1. __NOTOC__ * : ;";
    const orders = buildPages(s).find((p) => p.id === "Object-3-sales.orders");
    if (!orders) throw new Error("no orders page");
    const label = ': "x_a_(http://evil) _script_alert(1)_/script_ _L_ _T_ _b_ _"';

    const markdown = renderMarkdown(orders);
    expect(markdown).toContain(
      "\\- x \\`\\`\\` \\[a\\](http://evil) \\<script\\>alert(1)\\</script\\> \\[\\[L\\]\\] {{T}} '''b''' \\~\\~\\~\\~",
    );
    expect(markdown).toContain("| 1. \\_\\_NOTOC\\_\\_ \\* : ; |");
    expect(markdown).toContain(label);
    expect(markdown.match(/^```/gm)).toHaveLength(2);

    const wikitext = renderWikitext("Data Dictionary", orders);
    expect(wikitext).toContain(
      "&#45; x ``` &#91;a&#93;(http://evil) &#60;script&#62;alert(1)&#60;/script&#62; &#91;&#91;L&#93;&#93; &#123;&#123;T&#125;&#125; &#39;&#39;&#39;b&#39;&#39;&#39; &#126;&#126;&#126;&#126;",
    );
    expect(wikitext).toContain("|| 1. &#95;_NOTOC&#95;_ * : ;");
    expect(wikitext).toContain(label);
  });

  it("keep a lone carriage return, behaviour switches and signatures as text, in both dialects", () => {
    const s = snapshot();
    s.applications[0].description = "line\r- one __NOINDEX__ ~~~~";
    s.objects[0].name = "orders\r__NOINDEX__";
    s.objects[0].description = "a\r# b\r\n~~~~~ __NOTOC____FORCETOC__";
    s.elements[1].description = "x\r|| y ~~~ __NOEDITSECTION__";
    s.elements[1].defaultvalue = "___HIDDENCAT___";
    const pages = buildPages(s);
    const home = pages[0];
    const orders = pages.find((p) => p.id.startsWith("Object-3-sales.orders"));
    if (!orders) throw new Error("no orders page");

    const wikitext = [home, orders].map((p) => renderWikitext("Data Dictionary", p)).join("\n");
    // The diagram's entity names (inside <pre>, which MediaWiki leaves alone) keep their '__'.
    expect(wikitext.replace(/<pre class="mermaid">[^<]*<\/pre>/g, "")).not.toMatch(/\r|__|~~~/);
    expect(wikitext).toContain(
      "* [[Data Dictionary/Application-Shop|Shop]] - line - one &#95;_NOINDEX&#95;_ &#126;&#126;&#126;&#126;",
    );
    expect(wikitext).toContain("== sales.orders &#95;_NOINDEX&#95;_ ==");
    expect(wikitext).toContain(
      "\na # b &#126;&#126;&#126;&#126;&#126; &#95;_NOTOC&#95;&#95;&#95;_FORCETOC&#95;_\n",
    );
    expect(wikitext).toContain(
      "| 1 || id || integer || no || &#95;&#95;_HIDDENCAT&#95;&#95;_ || PK || x &#124;&#124; y &#126;&#126;&#126; &#95;_NOEDITSECTION&#95;_\n",
    );

    const markdown = [home, orders].map(renderMarkdown).join("\n");
    expect(markdown.replace(/```mermaid\n[^`]*```/g, "")).not.toMatch(/\r|(?<![\\\w])_|(?<!\\)~/);
    expect(markdown).toContain(
      "- [Shop](Application-Shop) - line - one \\_\\_NOINDEX\\_\\_ \\~\\~\\~\\~",
    );
    expect(markdown).toContain("# sales.orders \\_\\_NOINDEX\\_\\_\n");
    expect(markdown).toContain("\na \\# b \\~\\~\\~\\~\\~ \\_\\_NOTOC");
    expect(markdown).toContain("| x \\|\\| y \\~\\~\\~ \\_\\_NOEDITSECTION\\_\\_ |");
  });

  it("escape a long run of underscores in linear time", () => {
    const s = snapshot();
    s.objects[0].description = `${"_".repeat(100_000)}x`;
    const orders = buildPages(s).find((p) => p.id === "Object-3-sales.orders");
    if (!orders) throw new Error("no orders page");
    const started = performance.now();
    const text = renderWikitext("Data Dictionary", orders);
    // Linear, this takes milliseconds; the quadratic look-ahead it replaces took about 6 s.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(text).toContain(`${"&#95;".repeat(99_999)}_x`);
  });

  it("render wikitext with subpages of the root page", () => {
    const pages = buildPages(snapshot());
    expect(renderWikitext("Data Dictionary", pages[0])).toMatchInlineSnapshot(`
      "== Data Dictionary ==

      1 applications, 2 data objects, 3 data elements.

      * [[Data Dictionary/Application-Shop|Shop]] - Web shop
      "
    `);
    const customer = renderWikitext("Data Dictionary", pages[2]);
    expect(customer).toContain('{| class="wikitable sortable"');
    expect(customer).toContain("[[Data Dictionary/Object-3-sales.orders|sales.orders]]");
    expect(customer).toContain('<pre class="mermaid">');
    const app = renderWikitext("Data Dictionary", pages[1]);
    expect(app).toContain("Curated &#124; intro");
  });
});
