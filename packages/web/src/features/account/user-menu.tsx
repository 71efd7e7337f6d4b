import NavDropdown from "react-bootstrap/NavDropdown";
import { Link } from "react-router";
import { ThemeMenuItems } from "../theme/theme-menu.tsx";

/**
 * The navigation bar's user menu, opened from '[User: <name>]': the user's own pages and the
 * theme switch, in one place so the bar keeps to one row.
 */
export function UserMenu({ username }: { username: string }) {
  return (
    <NavDropdown
      title={<span data-testid="nav-user">[User: {username}]</span>}
      id="nav-user-menu"
      align="end"
      className="text-nowrap"
      data-testid="nav-user-menu"
    >
      <NavDropdown.Item as={Link} to="/account" data-testid="nav-account">
        <i className="bi bi-person me-2" aria-hidden="true" />
        My account
      </NavDropdown.Item>
      <NavDropdown.Item as={Link} to="/notifications" data-testid="nav-notifications">
        <i className="bi bi-bell me-2" aria-hidden="true" />
        Notifications
      </NavDropdown.Item>
      <NavDropdown.Item as={Link} to="/tokens" data-testid="nav-tokens">
        <i className="bi bi-key me-2" aria-hidden="true" />
        My tokens
      </NavDropdown.Item>
      <NavDropdown.Divider />
      <ThemeMenuItems />
    </NavDropdown>
  );
}
