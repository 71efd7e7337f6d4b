// `node --import tsx bench/support/write-items-workbook.ts <file> <rows> <again>`: writes one bench
// workbook in a process of its own, so the memory its generation takes is not the benchmark's.
import { itemPlan, writeItemsWorkbook } from "./xlsx-items.ts";

const [file, rows, again] = process.argv.slice(2);
await writeItemsWorkbook(file, itemPlan(Number(rows), again === "true"));
