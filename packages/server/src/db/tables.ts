import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  user_id: Generated<number>;
  username: string;
  name: string;
  email: string;
  password_hash: string;
  isadmin: ColumnType<boolean, boolean | undefined, boolean>;
  issuperadmin: ColumnType<boolean, boolean | undefined, boolean>;
  isdev: ColumnType<boolean, boolean | undefined, boolean>;
  is_deleted: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  session_hash: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface UserRolesTable {
  user_id: number;
  context: string;
  role: string;
  granted_by: string;
  granted_at: Timestamp;
}

export interface LoginFailuresTable {
  failure_id: Generated<number>;
  username: string;
  ip: string;
  failed_at: Timestamp;
}

export interface EventsTable {
  event_id: Generated<number>;
  context: string;
  entity_type: string;
  entity_key_id: number;
  action: "Add" | "Change" | "Missing" | "Create" | "Update" | "Amend" | "Delete";
  status: "pending" | "approved" | "rejected" | "superseded";
  old_values: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  new_values: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  base_version: number | null;
  source: string;
  created_by: string;
  /** Authors an Amend took over from (migration 012); null when the author is the only one. */
  earlier_proposers: string[] | null;
  created_at: Timestamp;
  decided_by: string | null;
  decided_at: Date | null;
  effective_from: Timestamp;
}

export interface TypeCountsTable {
  context: string;
  entity_type: string;
  row_count: number;
}

export interface UploadsTable {
  upload_id: Generated<number>;
  context: string;
  entity_type: string;
  layout: string;
  file_name: string;
  dry_run: boolean;
  created_by: string;
  created_at: Timestamp;
  finished_at: Date | null;
  outcome: ColumnType<
    "running" | "succeeded" | "failed",
    "running" | "succeeded" | "failed" | undefined
  >;
  message: string | null;
  counts: ColumnType<Record<string, number> | null, string | null, string | null>;
}

/** A column's profile, taken by one import run (migration 019). */
export interface ColumnProfilesTable {
  run_id: number;
  schema_name: string;
  object_name: string;
  column_name: string;
  method: "statistics" | "sample" | "sensitive" | "none";
  row_count: number | null;
  null_share: number | null;
  distinct_count: number | null;
  min_value: string | null;
  max_value: string | null;
  avg_length: number | null;
  top_values: ColumnType<{ value: string; share: number }[] | null, string | null, string | null>;
}

export interface ImportRunsTable {
  run_id: Generated<number>;
  metadata_source_id: number;
  trigger: "manual" | "schedule";
  started_by: string;
  started_at: Timestamp;
  finished_at: Date | null;
  outcome: ColumnType<
    "running" | "succeeded" | "failed",
    "running" | "succeeded" | "failed" | undefined
  >;
  message: string | null;
  counts: ColumnType<Record<string, number> | null, string | null, string | null>;
}

export interface ScheduleClaimsTable {
  metadata_source_id: number;
  scheduled_for: Date;
  claimed_by: string;
  claimed_at: Timestamp;
}

export interface PublishRunsTable {
  run_id: Generated<number>;
  started_by: string;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
  finished_at: Date | null;
  target: string;
  outcome: ColumnType<
    "running" | "succeeded" | "failed",
    "running" | "succeeded" | "failed" | undefined
  >;
  message: string | null;
  pages_written: number | null;
  pages_unchanged: number | null;
  pages_removed: number | null;
}

/** The fixed `app` schema; entity tables are dynamic and queried through `sql.id`. */
export interface AppTables {
  "app.users": UsersTable;
  "app.sessions": SessionsTable;
  "app.user_roles": UserRolesTable;
  "app.login_failures": LoginFailuresTable;
  "app.events": EventsTable;
  "app.type_counts": TypeCountsTable;
  "app.uploads": UploadsTable;
  "app.import_runs": ImportRunsTable;
  "app.column_profiles": ColumnProfilesTable;
  "app.schedule_claims": ScheduleClaimsTable;
  "app.publish_runs": PublishRunsTable;
}
