import { type ReactNode, useState } from "react";
import Card from "react-bootstrap/Card";
import Form from "react-bootstrap/Form";
import { Navigate } from "react-router";
import { useProfile } from "../../state/session-store.ts";
import {
  BadgeSamples,
  ButtonSamples,
  type ColorMode,
  IconSamples,
  ModalSample,
  TableSamples,
} from "./theme-samples.tsx";

/** /theme (developers): samples of icons, buttons, badges, a modal and tables, light or dark. */
export function ThemePage() {
  const profile = useProfile();
  if (!profile?.isdev) return <Navigate to="/" replace />;
  return <ThemeShowcase />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="mb-4 shadow-sm">
      <Card.Header as="h2" className="h6 mb-0">
        {title}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card>
  );
}

function ThemeShowcase() {
  // Only the showcase switches mode: the rest of the application stays light.
  const [mode, setMode] = useState<ColorMode>("light");

  return (
    <div
      data-bs-theme={mode}
      className="bg-body text-body rounded-3 p-3 border"
      data-testid="theme-showcase"
    >
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">Theme</h1>
        <Form.Check
          type="switch"
          id="theme-dark-mode"
          label="Dark mode"
          checked={mode === "dark"}
          onChange={(event) => setMode(event.target.checked ? "dark" : "light")}
        />
      </div>
      <Section title="Icons">
        <IconSamples />
      </Section>
      <Section title="Buttons">
        <ButtonSamples />
      </Section>
      <Section title="Badges">
        <BadgeSamples />
      </Section>
      <Section title="Modal">
        <ModalSample mode={mode} />
      </Section>
      <Section title="Tables">
        <TableSamples />
      </Section>
    </div>
  );
}
