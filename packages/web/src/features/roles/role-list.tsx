import type { Role } from "@ledgerline/contract";
import ListGroup from "react-bootstrap/ListGroup";

export interface RoleListProps {
  title: string;
  roles: Role[];
  selected: string | null;
  onSelect: (role: string) => void;
  /** Double click: move the role to the other list. */
  onMove: (role: string) => void;
  empty: string;
  testId: string;
}

/** One of the two role lists; its items select the role whose description is shown. */
export function RoleList({
  title,
  roles,
  selected,
  onSelect,
  onMove,
  empty,
  testId,
}: RoleListProps) {
  const headingId = `${testId}-heading`;
  return (
    <section data-testid={testId}>
      <h2 id={headingId} className="h6 mb-2">
        {title}
      </h2>
      <ListGroup
        variant="flush"
        aria-labelledby={headingId}
        className="border rounded overflow-auto"
        style={{ height: 220 }}
      >
        {roles.map((role) => (
          <ListGroup.Item
            key={role.name}
            action
            active={role.name === selected}
            onClick={() => onSelect(role.name)}
            onDoubleClick={() => onMove(role.name)}
          >
            {role.uiname}
          </ListGroup.Item>
        ))}
        {roles.length === 0 && (
          <ListGroup.Item className="text-body-secondary fst-italic border-0">
            {empty}
          </ListGroup.Item>
        )}
      </ListGroup>
    </section>
  );
}
