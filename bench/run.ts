// `npm run bench -- <name>`: runs one benchmark of DESIGN.md §14 and writes bench/results/<name>.json.
import { benchApprove } from "./approve.ts";
import { benchBackup } from "./backup.ts";
import { benchDictionary } from "./dictionary.ts";
import { benchExplorer } from "./explorer.ts";
import { benchExport } from "./export.ts";
import { benchFeed } from "./feed.ts";
import { benchHierarchy } from "./hierarchy.ts";
import { benchHistory } from "./history.ts";
import { benchIngest } from "./ingest.ts";
import { benchLoad } from "./load.ts";
import { benchNotify } from "./notify.ts";
import { benchOverhead } from "./overhead.ts";
import { benchPublish } from "./publish.ts";
import { benchRecords } from "./records.ts";
import { benchSearch } from "./search.ts";
import { installInterruptHandler } from "./support/cleanup.ts";

const BENCHMARKS: Record<string, () => Promise<void>> = {
  records: benchRecords,
  export: benchExport,
  explorer: benchExplorer,
  ingest: benchIngest,
  approve: benchApprove,
  dictionary: benchDictionary,
  publish: benchPublish,
  load: benchLoad,
  notify: benchNotify,
  overhead: benchOverhead,
  history: benchHistory,
  feed: benchFeed,
  search: benchSearch,
  backup: benchBackup,
  hierarchy: benchHierarchy,
};

const name = process.argv[2];
const run = name ? BENCHMARKS[name] : undefined;
if (!run) {
  console.error(
    `Usage: npm run bench -- <name>, with one of: ${Object.keys(BENCHMARKS).join(", ")}`,
  );
  process.exit(2);
}
installInterruptHandler();
try {
  await run();
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
}
