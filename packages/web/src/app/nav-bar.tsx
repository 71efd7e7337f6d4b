import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { useState } from "react";
import Badge from "react-bootstrap/Badge";
import Container from "react-bootstrap/Container";
import Nav from "react-bootstrap/Nav";
import Navbar from "react-bootstrap/Navbar";
import NavDropdown from "react-bootstrap/NavDropdown";
import { Link, NavLink, useLocation } from "react-router";
import { useMayPublish } from "../components/entity-types/use-entity-types.ts";
import { useWaiting } from "../components/waiting/use-waiting.ts";
import { waitingForMeIn, waitingForMeText } from "../components/waiting/waiting-counts.ts";
import { UserMenu } from "../features/account/user-menu.tsx";
import { SearchBox } from "../features/search/search-box.tsx";
import { useProfile, useSelectedContext } from "../state/session-store.ts";
import { ContextSelect } from "./context-select.tsx";
import { useAppConfig, useNavShown } from "./use-app-config.ts";
import { useLogout } from "./use-logout.ts";
import "./nav-bar.css";

interface NavEntry {
  to: string;
  label: string;
  testId: string;
  /** A count shown as a pill after the label, hidden when 0. */
  badge?: number;
  /**
   * A Bootstrap icon shown instead of the label where the bar is short of room (nav-bar.css);
   * the label stays the link's name, and its tooltip.
   */
  icon?: string;
}

function NavEntryLink({ to, label, testId, badge = 0, icon }: NavEntry) {
  const descriptionId = `${testId}-badge-text`;
  return (
    <Nav.Link
      as={NavLink}
      to={to}
      end={to === "/"}
      className="text-nowrap"
      data-testid={testId}
      // The count describes the link rather than naming it: the link stays 'Pending changes'.
      aria-describedby={badge > 0 ? descriptionId : undefined}
      title={icon && label}
    >
      {icon ? (
        <>
          <i className={`bi bi-${icon} fs-5 nav-icon-compact`} aria-hidden="true" />
          <span className="nav-label-compact">{label}</span>
        </>
      ) : (
        label
      )}
      {badge > 0 && (
        <>
          <Badge
            bg="danger"
            pill
            className="ms-1 align-text-top"
            title={waitingForMeText(badge)}
            aria-hidden="true"
            data-testid={`${testId}-badge`}
          >
            {badge}
          </Badge>
          {/* Hidden from the link's name; read through aria-describedby all the same. */}
          <span id={descriptionId} hidden>
            {waitingForMeText(badge)}
          </span>
        </>
      )}
    </Nav.Link>
  );
}

/** The top navigation bar (SPEC.md section 2). */
export function NavBar() {
  const profile = useProfile();
  const context = useSelectedContext();
  const shown = useNavShown();
  const { data: config } = useAppConfig();
  const logout = useLogout();
  const waiting = useWaiting();
  const withContext = profile !== null && context !== null;
  const isDictionary = withContext && context === DATA_DICTIONARY_CONTEXT;
  const mayPublish = useMayPublish(isDictionary ? context : null);

  // On narrow screens the folded-out menu closes whenever the user moves to another page.
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState(false);
  const [expandedOn, setExpandedOn] = useState(pathname);
  if (expandedOn !== pathname) {
    setExpandedOn(pathname);
    setExpanded(false);
  }

  return (
    <Navbar
      as="header"
      bg="dark"
      data-bs-theme="dark"
      expand="xl"
      expanded={expanded}
      onToggle={setExpanded}
      className="mb-4 shadow-sm"
    >
      <Container fluid>
        <Navbar.Brand as="span" className="fw-semibold">
          <i className="bi bi-journal-text" aria-hidden="true" />
          {/* Between 1200 and 1400 px the bar needs the room the name takes. */}
          <span className="ms-2 d-xl-none d-xxl-inline">{config?.productName ?? "Ledgerline"}</span>
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="main-nav" />
        <Navbar.Collapse id="main-nav" className="flex-wrap row-gap-1">
          <Nav as="nav" className="me-auto flex-wrap" aria-label="Main">
            {shown("home") && <NavEntryLink to="/" label="Home" testId="nav-home" />}
            {withContext && shown("upload") && (
              <NavEntryLink to="/upload" label="Upload (xlsx)" testId="nav-upload" />
            )}
            {withContext && shown("explorer") && (
              <NavEntryLink to="/explorer" label="Data explorer" testId="nav-explorer" />
            )}
            {withContext && shown("pending") && (
              <NavEntryLink
                to="/pending"
                label="Pending changes"
                testId="nav-pending"
                badge={waitingForMeIn(waiting.data, context)}
              />
            )}
            {isDictionary && mayPublish && shown("wikimanager") && (
              <NavEntryLink
                to="/wikimanager"
                label="Data wiki manager"
                testId="nav-wikimanager"
                icon="journal-richtext"
              />
            )}
            {isDictionary && shown("systemenvironments") && (
              <NavEntryLink
                to="/system-environment"
                label="System environments"
                testId="nav-systemenvironments"
                icon="hdd-network"
              />
            )}
            {profile?.isdev && shown("developer") && (
              <NavDropdown title="Developer" id="nav-developer" data-testid="nav-developer">
                <NavDropdown.Item as={Link} to="/DevConsole" data-testid="nav-devconsole">
                  Developer Console
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/theme" data-testid="nav-theme">
                  Theme
                </NavDropdown.Item>
              </NavDropdown>
            )}
          </Nav>
          <Nav className="ms-auto align-items-xl-center gap-xl-2">
            <SearchBox />
            {profile && <ContextSelect />}
            {profile && <UserMenu username={profile.username} />}
            {profile?.isadmin && shown("admin") && (
              <NavDropdown
                title={
                  <>
                    <i className="bi bi-gear fs-5 d-none d-xl-inline" aria-hidden="true" />
                    {/* Only the icon shows in the one-row bar; the name stays for screen readers. */}
                    <span className="nav-label-xl-hidden">Administration</span>
                  </>
                }
                id="nav-admin"
                data-testid="nav-admin"
                align="end"
              >
                <NavDropdown.Item as={Link} to="/usermanagement" data-testid="nav-usermanagement">
                  User management
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/rolemanagement" data-testid="nav-rolemanagement">
                  Role management
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/audit" data-testid="nav-audit">
                  Audit trail
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to="/webhooks" data-testid="nav-webhooks">
                  Webhooks
                </NavDropdown.Item>
              </NavDropdown>
            )}
            {profile ? (
              <Nav.Link
                as="button"
                type="button"
                className="text-start"
                aria-label="Log out"
                title="Log out"
                data-testid="nav-logout"
                disabled={logout.isPending}
                onClick={() => logout.mutate()}
              >
                <i className="bi bi-box-arrow-right fs-5" aria-hidden="true" />
              </Nav.Link>
            ) : (
              <Nav.Link
                as={Link}
                to="/login"
                aria-label="Log in"
                title="Log in"
                data-testid="nav-login"
              >
                <i className="bi bi-box-arrow-in-right fs-5" aria-hidden="true" />
              </Nav.Link>
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
