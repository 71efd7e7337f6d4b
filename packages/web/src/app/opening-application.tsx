import Spinner from "react-bootstrap/Spinner";

/** What a screen shows while the application a link names is being selected (useContextFromLink, useLinkedApplication). */
export function OpeningApplication() {
  return (
    <div className="text-center py-5">
      <Spinner role="status" aria-label="Opening the application" />
    </div>
  );
}
