import type { UserSummary } from "@ledgerline/contract";
import type { KeyboardEvent } from "react";
import Table from "react-bootstrap/Table";

export interface UsersTableProps {
  users: UserSummary[];
  selected: string | null;
  onSelect: (username: string | null) => void;
  /** Double click or Enter on a row: open the edit modal. */
  onOpen: (username: string) => void;
}

/** The users with single-row selection: a click selects a row, a second click clears it. */
export function UsersTable({ users, selected, onSelect, onOpen }: UsersTableProps) {
  const toggle = (username: string) => onSelect(username === selected ? null : username);
  const onKey = (event: KeyboardEvent, username: string) => {
    if (event.key === " ") {
      event.preventDefault();
      toggle(username);
    } else if (event.key === "Enter") {
      onSelect(username);
      onOpen(username);
    }
  };

  return (
    <Table
      hover
      bordered
      responsive
      className="align-middle user-select-none"
      data-testid="users-table"
    >
      <thead className="table-light">
        <tr>
          <th scope="col">Username</th>
          <th scope="col">Display name</th>
          <th scope="col">Email</th>
          <th scope="col" className="text-center">
            Administrator
          </th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => {
          const isSelected = user.username === selected;
          return (
            <tr
              key={user.username}
              tabIndex={0}
              aria-selected={isSelected}
              className={isSelected ? "table-primary" : undefined}
              style={{ cursor: "pointer" }}
              onClick={() => toggle(user.username)}
              onDoubleClick={() => {
                onSelect(user.username);
                onOpen(user.username);
              }}
              onKeyDown={(event) => onKey(event, user.username)}
            >
              <td>{user.username}</td>
              <td>{user.name}</td>
              <td>{user.email}</td>
              <td className="text-center">
                {user.isadmin ? (
                  <i className="bi bi-check-lg text-success" role="img" aria-label="yes" />
                ) : (
                  <span className="visually-hidden">no</span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
