import { type NotificationKind, notificationKindsFor } from "@ledgerline/contract";
import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Card from "react-bootstrap/Card";
import ListGroup from "react-bootstrap/ListGroup";
import Spinner from "react-bootstrap/Spinner";
import { Link } from "react-router";
import { isApiError } from "../../api/index.ts";
import { useProfile } from "../../state/session-store.ts";
import { notificationRows } from "./notification-settings.ts";
import { NotificationSwitch, type SaveState } from "./notification-switch.tsx";
import {
  useNotificationSettings,
  useUpdateNotificationSetting,
} from "./use-notification-settings.ts";

const message = (error: unknown, fallback: string) =>
  isApiError(error) ? error.message : fallback;

/** /notifications: which e-mail messages the signed-in user receives, one switch per kind. */
export function NotificationsPage() {
  const settings = useNotificationSettings();
  const kinds = notificationKindsFor(useProfile()?.isadmin ?? false);
  const update = useUpdateNotificationSetting();
  const data = settings.data;
  // A switch moves with the click, in the click's own render: the settings' optimistic update
  // reaches the page a task later, and a controlled checkbox would be put back meanwhile.
  const [switching, setSwitching] = useState<Partial<Record<NotificationKind, boolean>>>({});
  const switchTo = (kind: NotificationKind, enabled: boolean) => {
    setSwitching((shown) => ({ ...shown, [kind]: enabled }));
    update.mutate(
      { kind, enabled },
      {
        onSettled: () =>
          setSwitching(({ [kind]: _settled, ...others }) => others as typeof switching),
      },
    );
  };

  const saveState = (kind: string): SaveState => {
    if (update.variables?.kind !== kind) return "idle";
    if (update.isPending) return "saving";
    return update.isSuccess ? "saved" : "idle";
  };

  return (
    <div className="mx-auto" style={{ maxWidth: "52rem" }} data-testid="notifications-page">
      <h1 className="h3 mb-3">
        <i className="bi bi-bell me-2" aria-hidden="true" />
        Notifications
      </h1>
      {settings.isPending && (
        <Spinner animation="border" role="status" aria-label="Loading notification settings" />
      )}
      {settings.isError && (
        <Alert variant="danger">
          {message(settings.error, "The notification settings could not be loaded")}
        </Alert>
      )}
      {data && (
        <>
          {!data.emailEnabled && (
            <Alert variant="info" data-testid="notifications-no-smtp">
              <i className="bi bi-info-circle me-2" aria-hidden="true" />
              E-mail is not configured on this server: no messages are sent. The counts on the Home
              page still work.
            </Alert>
          )}
          {data.email.trim() === "" ? (
            <Alert variant="warning" data-testid="notifications-no-email">
              <i className="bi bi-exclamation-triangle me-2" aria-hidden="true" />
              Your account has no e-mail address: no messages can reach you.{" "}
              <Alert.Link as={Link} to="/account" data-testid="notifications-add-email">
                Add one on My account
              </Alert.Link>
            </Alert>
          ) : (
            <p>
              Messages are sent to <strong data-testid="notifications-email">{data.email}</strong>.{" "}
              <Link to="/account">Change it on My account</Link>
            </p>
          )}
          {update.isError && (
            <Alert variant="danger" dismissible onClose={() => update.reset()}>
              {message(update.error, "The setting could not be saved")}
            </Alert>
          )}
          <Card className="shadow-sm">
            <Card.Header className="bg-body-tertiary">
              <h2 className="h6 mb-0">Messages I receive</h2>
            </Card.Header>
            <ListGroup variant="flush">
              {notificationRows(data.settings, kinds).map((row) => (
                <NotificationSwitch
                  key={row.kind}
                  row={{ ...row, enabled: switching[row.kind] ?? row.enabled }}
                  state={saveState(row.kind)}
                  onChange={(enabled) => switchTo(row.kind, enabled)}
                />
              ))}
            </ListGroup>
          </Card>
        </>
      )}
    </div>
  );
}
