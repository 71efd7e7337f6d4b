export const BENCH_CONTEXT = "Bench";
export const BENCH_SCHEMA = "ctx_bench";
export const BENCH_TYPE = "item";
/** A small type of the bench model that the measured work leaves alone: other users' lists read it. */
export const PROBE_TYPE = "tag";

/** The categories the bench type's `oneOf` rule allows: the first 8 of the 20 the records seed uses. */
export const BENCH_CATEGORIES = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
];

/**
 * The bench model: one context with one 10-attribute type (and a small one for list probes). Filterable strings get the btree,
 * text_pattern_ops and pg_trgm indexes of DESIGN.md §6; `name` is the sorted and filtered column.
 * Four error rules (a pattern, a range, a oneOf, a comparison) are checked on every row uploaded;
 * the records seed breaks the oneOf in 60% of its rows, for the 'Breaks a rule' filter.
 */
export const BENCH_MODEL_YAML = `# Written by bench/support/model.ts for the benchmarks.
name: ${BENCH_CONTEXT}
uiName: Benchmark
entityTypes:
  - name: ${BENCH_TYPE}
    uiName: Item
    uiSequence: 1
    label: "{code} - {name}"
    approval: { upload: false, web: false }
    attributes:
      - name: code
        uiName: Code
        dataType: String
        identity: true
        filter: true
        rules: [{ pattern: "IT[0-9]{7}" }]
      - { name: name, uiName: Name, dataType: String, filter: true }
      - name: category
        uiName: Category
        dataType: String
        filter: true
        rules: [{ oneOf: ${JSON.stringify(BENCH_CATEGORIES)} }]
      - { name: region, uiName: Region, dataType: String, nullable: true }
      - name: amount
        uiName: Amount
        dataType: Number
        nullable: true
        filter: true
        rules: [{ min: 0, max: 1000000 }]
      - { name: quantity, uiName: Quantity, dataType: Number, nullable: true }
      - { name: active, uiName: Active, dataType: Boolean, nullable: true, filter: true }
      - { name: valid_from, uiName: Valid from, dataType: Date, nullable: true, filter: true }
      - { name: score, uiName: Score, dataType: Number, nullable: true }
      - { name: description, uiName: Description, dataType: String, nullable: true }
    rules:
      - compare: { left: code, op: "<>", right: name }
  - name: ${PROBE_TYPE}
    uiName: Tag
    uiSequence: 2
    label: "{code}"
    approval: { upload: false, web: false }
    attributes:
      - { name: code, uiName: Code, dataType: String, identity: true, filter: true }
      - { name: name, uiName: Name, dataType: String, nullable: true, filter: true }
      - { name: amount, uiName: Amount, dataType: Number, nullable: true }
roles:
  - name: steward
    uiname: Steward
    grants: { "*": [read, create, edit, delete] }
`;
