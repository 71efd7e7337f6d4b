import Button from "react-bootstrap/Button";
import { useNavigate, useParams } from "react-router";

/** /errornotification/:message: shows the message from the route (decoded by the router). */
export function ErrorNotificationPage() {
  const { message = "" } = useParams();
  const navigate = useNavigate();

  return (
    <div className="text-center mt-5 mx-auto" style={{ maxWidth: 720 }}>
      <i className="bi bi-exclamation-triangle text-warning display-5" aria-hidden="true" />
      <p className="lead mt-3 text-break" data-testid="error-notification-message">
        {message}
      </p>
      <Button onClick={() => navigate("/")}>Back to main page</Button>
    </div>
  );
}
