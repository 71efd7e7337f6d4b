import { useContexts } from "../app/use-contexts.ts";

/** What a screen of one application shows while none is selected (SPEC.md: 'Please select an application'). */
export function SelectApplicationPrompt({ testId }: { testId: string }) {
  const { data: contexts } = useContexts();
  return (
    <div className="text-center text-body-secondary mt-5" data-testid={testId}>
      <i className="bi bi-grid-3x3-gap display-5 d-block mb-3" aria-hidden="true" />
      <p className="lead">Please select an application</p>
      {contexts?.length === 0 && (
        <p data-testid="no-applications">
          You have no role in any application yet: an administrator grants one on the Role
          management page.
        </p>
      )}
    </div>
  );
}
