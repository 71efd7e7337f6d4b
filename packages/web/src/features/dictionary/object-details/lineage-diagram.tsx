import type { ObjectDetailsResponse } from "@ledgerline/contract";
import { useId } from "react";
import { qualifiedName } from "./object-link.tsx";

const BOX_W = 230;
const BOX_H = 34;
const ROW = 48;
const GAP = 100;
const WIDTH = 3 * BOX_W + 2 * GAP;
const LONGEST = 30;

/** A name that fits its box; the whole name is the box's title. */
const fitted = (name: string) => (name.length > LONGEST ? `${name.slice(0, LONGEST - 1)}…` : name);

interface Box {
  name: string;
  x: number;
  y: number;
}

function Entity({ box, current }: { box: Box; current?: boolean }) {
  return (
    <g className={current ? "lineage-entity lineage-current" : "lineage-entity"}>
      <title>{box.name}</title>
      <rect x={box.x} y={box.y} width={BOX_W} height={BOX_H} rx={3} />
      <text
        x={box.x + BOX_W / 2}
        y={box.y + BOX_H / 2}
        dominantBaseline="central"
        textAnchor="middle"
      >
        {fitted(box.name)}
      </text>
    </g>
  );
}

/** A line from the view (`from`) to what it reads (`to`), labelled 'reads' as the ER diagrams' relations are. */
function Reads({ from, to, arrow }: { from: Box; to: Box; arrow: string }) {
  const leftToRight = from.x < to.x;
  const x1 = leftToRight ? from.x + BOX_W : from.x;
  const x2 = leftToRight ? to.x : to.x + BOX_W;
  const y1 = from.y + BOX_H / 2;
  const y2 = to.y + BOX_H / 2;
  return (
    <g className="lineage-relation">
      <line x1={x1} y1={y1} x2={x2} y2={y2} markerEnd={`url(#${arrow})`} />
      <text x={(x1 + x2) / 2} y={(y1 + y2) / 2 - 6} textAnchor="middle">
        reads
      </text>
    </g>
  );
}

/**
 * What the object reads on its left, the views that read it on its right, each joined by a
 * 'reads' line pointing at what is read: the wiki's ER diagrams of the same lineage, drawn here.
 */
export function LineageDiagram({ details }: { details: ObjectDetailsResponse }) {
  const titleId = useId();
  const arrow = useId();
  const { object, upstream, downstream } = details;
  const rows = Math.max(upstream.length, downstream.length, 1);
  const height = rows * ROW;
  const column = (names: string[], x: number): Box[] => {
    const top = (height - names.length * ROW) / 2 + (ROW - BOX_H) / 2;
    return names.map((name, i) => ({ name, x, y: top + i * ROW }));
  };
  const center: Box = { name: qualifiedName(object), x: BOX_W + GAP, y: (height - BOX_H) / 2 };
  const left = column(
    upstream.map((u) => (u.object ? qualifiedName(u.object) : u.reads)),
    0,
  );
  const right = column(
    downstream.map((d) => qualifiedName(d.view)),
    2 * (BOX_W + GAP),
  );
  const described = [
    left.length > 0 ? `reads ${left.map((b) => b.name).join(", ")}` : "",
    right.length > 0 ? `is read by ${right.map((b) => b.name).join(", ")}` : "",
  ].filter(Boolean);
  return (
    <svg
      className="lineage-diagram"
      viewBox={`-2 -2 ${WIDTH + 4} ${height + 4}`}
      role="img"
      aria-labelledby={titleId}
      data-testid="lineage-diagram"
    >
      <title id={titleId}>{`Lineage diagram: ${center.name} ${described.join(" and ")}`}</title>
      <defs>
        <marker
          id={arrow}
          viewBox="0 0 10 10"
          refX="10"
          refY="5"
          markerWidth="8"
          markerHeight="8"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" />
        </marker>
      </defs>
      {left.map((box) => (
        <Reads key={`u-${box.name}-${box.y}`} from={center} to={box} arrow={arrow} />
      ))}
      {right.map((box) => (
        <Reads key={`d-${box.name}-${box.y}`} from={box} to={center} arrow={arrow} />
      ))}
      {left.map((box) => (
        <Entity key={`ue-${box.name}-${box.y}`} box={box} />
      ))}
      <Entity box={center} current />
      {right.map((box) => (
        <Entity key={`de-${box.name}-${box.y}`} box={box} />
      ))}
    </svg>
  );
}
