import { ToastStack, useToasts } from "../../../components/toasts.tsx";
import "../dictionary.css";
import { useNavigationNotice } from "../use-navigation-notice.ts";
import { MetadataSourcesCard } from "./metadata-sources-card.tsx";
import { SystemEnvironmentsCard } from "./system-environments-card.tsx";

/** /system-environment: the system environments and the metadata sources importing from them. */
export function SystemEnvironmentPage() {
  const { toasts, showToast, dismiss } = useToasts();
  useNavigationNotice(showToast);

  return (
    <div data-testid="system-environment-page">
      <div className="mb-4">
        <h1 className="h3 mb-1">System environments</h1>
        <p className="text-body-secondary mb-0">
          Database connections, and the metadata sources that import their catalog into the data
          dictionary.
        </p>
      </div>
      <SystemEnvironmentsCard />
      <MetadataSourcesCard showToast={showToast} />
      <ToastStack toasts={toasts} onClose={dismiss} />
    </div>
  );
}
