import { useCallback, useState } from "react";
import Toast from "react-bootstrap/Toast";
import ToastContainer from "react-bootstrap/ToastContainer";

/** SPEC.md section 9: toasts hide after 5 seconds. */
export const TOAST_DELAY_MS = 5000;

export type ToastVariant = "info" | "success" | "warning" | "danger";

export interface ToastMessage {
  id: number;
  title: string;
  body: string;
  variant: ToastVariant;
}

const ICONS: Record<ToastVariant, string> = {
  info: "bi-info-circle-fill text-primary",
  success: "bi-check-circle-fill text-success",
  warning: "bi-exclamation-triangle-fill text-warning",
  danger: "bi-x-circle-fill text-danger",
};

let nextId = 1;

/** The toasts of one screen: render them with <ToastStack>. */
export function useToasts() {
  const [toasts, setToasts] = useState<ToastMessage[]>([]);
  const showToast = useCallback(
    (title: string, body: string, variant: ToastVariant = "info") =>
      setToasts((list) => [...list, { id: nextId++, title, body, variant }]),
    [],
  );
  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((t) => t.id !== id)),
    [],
  );
  return { toasts, showToast, dismiss };
}

export interface ToastStackProps {
  toasts: ToastMessage[];
  onClose: (id: number) => void;
  delayMs?: number;
}

/** Toasts in the bottom right corner, clear of the navigation bar; each hides itself after a delay. */
export function ToastStack({ toasts, onClose, delayMs = TOAST_DELAY_MS }: ToastStackProps) {
  return (
    <ToastContainer position="bottom-end" containerPosition="fixed" className="p-3">
      {toasts.map((toast) => (
        <Toast
          key={toast.id}
          onClose={() => onClose(toast.id)}
          delay={delayMs}
          autohide
          data-testid="toast"
          role={toast.variant === "danger" ? "alert" : "status"}
          className="shadow"
        >
          <Toast.Header>
            <i className={`bi ${ICONS[toast.variant]} me-2`} aria-hidden="true" />
            <strong className="me-auto">{toast.title}</strong>
          </Toast.Header>
          <Toast.Body className="text-break">{toast.body}</Toast.Body>
        </Toast>
      ))}
    </ToastContainer>
  );
}
