import type {
  WebhookSecret as WebhookSecretAnswer,
  WebhookSubscription,
} from "@ledgerline/contract";
import { useId, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Spinner from "react-bootstrap/Spinner";
import { Navigate } from "react-router";
import { isApiError } from "../../api/index.ts";
import { OpeningApplication } from "../../app/opening-application.tsx";
import { useContextFromLink } from "../../app/use-context-from-link.ts";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { SelectApplicationPrompt } from "../../components/select-application-prompt.tsx";
import { ToastStack, useToasts } from "../../components/toasts.tsx";
import { useContextOptions, useProfile, useSelectedContext } from "../../state/session-store.ts";
import { DeliveryLog } from "./delivery-log.tsx";
import { useRotateWebhook, useWebhookAction, useWebhooks } from "./use-webhooks.ts";
import { WebhookFormModal } from "./webhook-form-modal.tsx";
import { WebhookSecret } from "./webhook-secret.tsx";
import { removeQuestion, rotateQuestion, webhooksExplanation } from "./webhook-texts.ts";
import { type WebhookRowAction, WebhooksTable } from "./webhooks-table.tsx";

const message = (error: unknown, fallback: string) =>
  isApiError(error) ? error.message : fallback;

/**
 * /webhooks: the selected application's webhook subscriptions, administrators only; everyone else
 * goes to / (the server refuses them too). Links may name the application (`?context=<name>`),
 * as the e-mail about a paused webhook does.
 */
export function WebhooksPage() {
  const profile = useProfile();
  const context = useSelectedContext();
  const following = useContextFromLink();
  if (!profile?.isadmin) return <Navigate to="/" replace />;
  if (following) return <OpeningApplication />;
  if (context === null) return <SelectApplicationPrompt testId="webhooks-select-prompt" />;
  // A new application starts from a closed form, no secret and no open log.
  return <Webhooks key={context} context={context} />;
}

type Form = { mode: "add" } | { mode: "edit"; subscription: WebhookSubscription } | null;
type Question = { action: "rotate" | "remove"; subscription: WebhookSubscription } | null;

function Webhooks({ context }: { context: string }) {
  const options = useContextOptions();
  const uiName = options.find((o) => o.name === context)?.uiName ?? context;
  const list = useWebhooks(context);
  const types = useEntityTypes(context);
  const rotate = useRotateWebhook();
  const act = useWebhookAction();
  const { toasts, showToast, dismiss } = useToasts();
  const logPanelId = useId();
  const [form, setForm] = useState<Form>(null);
  const [secret, setSecret] = useState<WebhookSecretAnswer | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  // The subscription asked about stays set while the modal fades out, so its text does not flicker.
  const [question, setQuestion] = useState<Question>(null);
  const [asking, setAsking] = useState(false);
  const subscriptions = list.data?.subscriptions ?? [];
  const logged = subscriptions.find((s) => s.subscriptionId === logOf);
  const typeList = types.data ?? [];
  const failure = rotate.isError
    ? message(rotate.error, "No new secret was made")
    : act.isError
      ? message(act.error, "The webhook was not changed")
      : null;

  const onAction = (action: WebhookRowAction, subscription: WebhookSubscription) => {
    rotate.reset();
    act.reset();
    const { subscriptionId } = subscription;
    if (action === "deliveries") setLogOf(logOf === subscriptionId ? null : subscriptionId);
    else if (action === "edit") setForm({ mode: "edit", subscription });
    else if (action === "rotate" || action === "remove") {
      setQuestion({ action, subscription });
      setAsking(true);
    } else {
      act.mutate(
        { action, subscriptionId },
        {
          onSuccess: (answer) =>
            showToast(action === "pause" ? "Paused" : "Resumed", answer.Msg, "success"),
        },
      );
    }
  };

  const confirm = () => {
    if (!question) return;
    const { subscriptionId } = question.subscription;
    const close = { onSettled: () => setAsking(false) };
    if (question.action === "rotate") {
      rotate.mutate({ subscriptionId }, { ...close, onSuccess: setSecret });
    } else {
      act.mutate(
        { action: "remove", subscriptionId },
        {
          ...close,
          onSuccess: (answer) => {
            if (logOf === subscriptionId) setLogOf(null);
            showToast("Removed", answer.Msg, "success");
          },
        },
      );
    }
  };

  return (
    <div data-testid="webhooks-page">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h1 className="h3 mb-0 me-auto">
          <i className="bi bi-broadcast me-2" aria-hidden="true" />
          Webhooks
        </h1>
        <Button
          onClick={() => {
            setSecret(null);
            setForm({ mode: "add" });
          }}
          disabled={!list.data || !types.data}
        >
          <i className="bi bi-plus-lg me-2" aria-hidden="true" />
          Add webhook
        </Button>
      </div>
      <p
        className="text-body-secondary"
        style={{ maxWidth: "64rem" }}
        data-testid="webhooks-explanation"
      >
        {webhooksExplanation(uiName)}
      </p>
      {secret && (
        <WebhookSecret key={secret.secret} answer={secret} onDone={() => setSecret(null)} />
      )}
      {failure !== null && (
        <Alert
          variant="danger"
          dismissible
          onClose={() => {
            rotate.reset();
            act.reset();
          }}
          data-testid="webhooks-error"
        >
          {failure}
        </Alert>
      )}
      {(list.isPending || types.isPending) && (
        <Spinner animation="border" role="status" aria-label="Loading webhooks" />
      )}
      {list.isError && (
        <Alert variant="danger">{message(list.error, "The webhooks could not be loaded")}</Alert>
      )}
      {types.isError && (
        <Alert variant="danger">{message(types.error, "The types could not be loaded")}</Alert>
      )}
      {list.data && subscriptions.length === 0 && (
        <p className="text-body-secondary" data-testid="no-webhooks">
          No webhooks yet.
        </p>
      )}
      {subscriptions.length > 0 && (
        <WebhooksTable
          subscriptions={subscriptions}
          types={typeList}
          logOf={logged ? logOf : null}
          logPanelId={logPanelId}
          busy={act.isPending || rotate.isPending}
          onAction={onAction}
        />
      )}
      {logged && (
        <DeliveryLog
          key={logged.subscriptionId}
          id={logPanelId}
          subscription={logged}
          showToast={showToast}
          onClose={() => setLogOf(null)}
        />
      )}

      {form && (
        <WebhookFormModal
          context={context}
          types={typeList}
          subscription={form.mode === "edit" ? form.subscription : undefined}
          onClose={() => setForm(null)}
          onCreated={(answer) => {
            setForm(null);
            setSecret(answer);
          }}
          onSaved={(saved) => {
            setForm(null);
            showToast("Saved", `Webhook to ${saved.url} saved`, "success");
          }}
        />
      )}
      <ConfirmModal
        show={asking}
        title={question?.action === "rotate" ? "Rotate secret" : "Remove webhook"}
        confirmLabel={question?.action === "rotate" ? "Rotate secret" : "Remove"}
        variant={question?.action === "rotate" ? "primary" : "danger"}
        busy={rotate.isPending || act.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
        testId="webhook-confirm"
      >
        <p className="mb-0 text-break">
          {question &&
            (question.action === "rotate"
              ? rotateQuestion(question.subscription.url)
              : removeQuestion(question.subscription.url))}
        </p>
      </ConfirmModal>
      <ToastStack toasts={toasts} onClose={dismiss} />
    </div>
  );
}
