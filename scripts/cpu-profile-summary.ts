// `node --import tsx scripts/cpu-profile-summary.ts <file.cpuprofile>...`: self time of V8 CPU
// profiles (node --cpu-prof, or BENCH_CPU_PROFILE of `npm run bench -- overhead`) by package or
// source file and by function, largest first. TOP=<n> sets how many functions are listed (40).
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A package name, a file of this repository, a node: module, or '(native)'. */
function ownerOf(url: string): string {
  if (!url) return "(native)";
  const path = url.replace(/^file:\/\//, "");
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const own = /\/(packages|bench)\/(.*)$/.exec(path);
  return own ? `${own[1]}/${own[2]}` : path;
}

const byOwner = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const { callFrame } = nodes.get(id) as ProfileNode;
    const owner = ownerOf(callFrame.url);
    const name = `${callFrame.functionName || "(anonymous)"}  ${owner}:${callFrame.lineNumber + 1}`;
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    total += us;
  });
}

const top = (counts: Map<string, number>, n: number) =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => {
      const ms = (us / 1000).toFixed(0).padStart(7);
      return `${ms} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`;
    })
    .join("\n");

console.log(`${(total / 1000).toFixed(0)} ms sampled\n\nby package or file\n${top(byOwner, 25)}`);
console.log(`\nby function\n${top(byFunction, Number(process.env.TOP ?? 40))}`);
