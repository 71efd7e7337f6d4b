import Alert from "react-bootstrap/Alert";
import Spinner from "react-bootstrap/Spinner";
import Table from "react-bootstrap/Table";
import { isApiError } from "../../api/index.ts";
import { switchedOffText } from "./notification-summary.ts";
import { useUsersNotificationSettings } from "./use-notification-admin.ts";

/** Every user's notification settings: which kinds each one switched off. */
export function NotificationOverview() {
  const users = useUsersNotificationSettings();
  return (
    <section className="mt-4" aria-labelledby="notification-settings-title">
      <h2 id="notification-settings-title" className="h5">
        <i className="bi bi-bell me-2" aria-hidden="true" />
        Notification settings
      </h2>
      {users.isPending && (
        <Spinner size="sm" role="status" aria-label="Loading notification settings" />
      )}
      {users.isError && (
        <Alert variant="danger">
          {isApiError(users.error)
            ? users.error.message
            : "The notification settings could not be loaded"}
        </Alert>
      )}
      {users.data && (
        <Table
          bordered
          responsive
          size="sm"
          className="align-middle"
          data-testid="notification-settings"
        >
          <thead className="table-light">
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Email</th>
              <th scope="col">Notifications</th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => {
              const text = switchedOffText(user.settings);
              return (
                <tr key={user.username}>
                  <td>{user.username}</td>
                  <td>
                    {user.email.trim() === "" ? (
                      <span className="text-warning-emphasis">no e-mail address</span>
                    ) : (
                      user.email
                    )}
                  </td>
                  <td className={text === "all on" ? "text-body-secondary" : undefined}>{text}</td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </section>
  );
}
