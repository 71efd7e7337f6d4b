import type { ColumnProfileBody, ProfileMethod } from "@ledgerline/contract";
import Table from "react-bootstrap/Table";

const METHODS: Record<ProfileMethod, string> = {
  statistics: "database statistics",
  sample: "sample",
  sensitive: "sensitive: values not read",
  none: "not analysed",
};

const percent = (share: number) => `${Math.round(share * 100)} %`;
const count = (n: number | null) => (n === null ? "" : n.toLocaleString("en"));

/** 'YYYY-MM-DD HH:mm UTC', as the import's times are shown elsewhere. */
export const utcMinute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** The share of nulls: a small bar, and the percentage in words beside it. */
function NullShare({ share }: { share: number | null }) {
  if (share === null) return null;
  return (
    <span className="d-inline-flex align-items-center gap-2 text-nowrap">
      <span className="null-share-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
      <span>{percent(share)} null</span>
    </span>
  );
}

/** The most common values, each with its share; a sensitive column's are never read. */
function TopValues({ values }: { values: ColumnProfileBody["topValues"] }) {
  if (!values || values.length === 0) return null;
  return (
    <ul className="list-unstyled mb-0">
      {values.map((v) => (
        <li key={v.value}>
          <code className="text-body">{v.value}</code>{" "}
          <span className="text-body-secondary">({percent(v.share)})</span>
        </li>
      ))}
    </ul>
  );
}

interface ColumnProfilesTableProps {
  profiles: ColumnProfileBody[];
  profiledAt: string | null;
}

/** Each column's profile from the source's latest import that took any, with when it was taken. */
export function ColumnProfilesTable({ profiles, profiledAt }: ColumnProfilesTableProps) {
  if (profiles.length === 0 || profiledAt === null)
    return (
      <p className="text-body-secondary mb-0" data-testid="profiles-none">
        Not profiled: views are never profiled, tables only when their metadata source has 'Profile
        columns' on.
      </p>
    );
  return (
    <>
      <p className="small text-body-secondary mb-2" data-testid="profiled-at">
        Profiled {utcMinute(profiledAt)}, by the import of that time.
      </p>
      <section
        className="table-responsive"
        aria-label="Column profiles, scrolls sideways"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll the columns that do not fit.
        tabIndex={0}
      >
        <Table size="sm" className="dictionary-table mb-0" data-testid="column-profiles">
          <caption className="visually-hidden">Column profiles</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Nulls</th>
              <th scope="col">Distinct</th>
              <th scope="col">Min</th>
              <th scope="col">Max</th>
              <th scope="col">Avg length</th>
              <th scope="col">Most common values</th>
              <th scope="col">Rows</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {profiles.map((p) => (
              <tr key={p.column} data-testid="profile-row">
                <th scope="row" className="fw-normal">
                  {p.column}
                </th>
                <td>
                  <NullShare share={p.nullShare} />
                </td>
                <td>{count(p.distinctCount)}</td>
                <td className="text-break">{p.minValue ?? ""}</td>
                <td className="text-break">{p.maxValue ?? ""}</td>
                <td>{p.avgLength === null ? "" : p.avgLength.toFixed(1)}</td>
                <td>
                  <TopValues values={p.topValues} />
                </td>
                <td>{count(p.rowCount)}</td>
                <td className="small text-body-secondary">{METHODS[p.method]}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </section>
    </>
  );
}
