import type { ApiTokenInfo } from "@ledgerline/contract";
import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import Table from "react-bootstrap/Table";
import { isApiError } from "../../api/index.ts";
import { ConfirmModal } from "../confirm-modal.tsx";
import { type TokenStatus, tokenDateText, tokenStatus } from "./token-status.ts";
import { useRevokeApiToken } from "./use-api-tokens.ts";

const STATUS_BADGE: Record<TokenStatus, string> = {
  active: "success",
  expired: "secondary",
  revoked: "danger",
};

export interface ApiTokensTableProps {
  tokens: ApiTokenInfo[];
  /** Administrators see every user's tokens: a User column first. */
  showUser?: boolean;
  testId: string;
}

/** API tokens with their dates and status, and a 'Revoke' button (confirmed) on active ones. */
export function ApiTokensTable({ tokens, showUser = false, testId }: ApiTokensTableProps) {
  const revoke = useRevokeApiToken();
  // The token asked about stays set while the modal fades out, so its text does not flicker.
  const [asked, setAsked] = useState<ApiTokenInfo | null>(null);
  const [open, setOpen] = useState(false);
  const now = Date.now();

  const confirm = () => {
    if (asked) revoke.mutate({ tokenId: asked.tokenId }, { onSettled: () => setOpen(false) });
  };

  return (
    <>
      {revoke.isError && (
        <Alert variant="danger" dismissible onClose={() => revoke.reset()}>
          {isApiError(revoke.error) ? revoke.error.message : "The token was not revoked"}
        </Alert>
      )}
      <Table bordered responsive size="sm" className="align-middle" data-testid={testId}>
        <thead className="table-light">
          <tr>
            {showUser && <th scope="col">User</th>}
            <th scope="col">Name</th>
            <th scope="col">Scope</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const status = tokenStatus(token, now);
            return (
              <tr key={token.tokenId} data-testid={`token-row-${token.tokenId}`}>
                {showUser && <td>{token.username}</td>}
                <td className="text-break">{token.name}</td>
                <td>{token.scope}</td>
                <td className="text-nowrap">{tokenDateText(token.createdAt)}</td>
                <td className="text-nowrap">{tokenDateText(token.expiresAt)}</td>
                <td
                  className={`text-nowrap${token.lastUsedAt === null ? " text-body-secondary" : ""}`}
                >
                  {tokenDateText(token.lastUsedAt)}
                </td>
                <td>
                  <Badge bg={STATUS_BADGE[status]} data-testid="token-status">
                    {status}
                  </Badge>
                </td>
                <td className="text-end">
                  {status === "active" && (
                    <Button
                      variant="outline-danger"
                      size="sm"
                      // Flat, so that rows with and without the button keep one height.
                      className="py-0"
                      disabled={revoke.isPending}
                      onClick={() => {
                        revoke.reset();
                        setAsked(token);
                        setOpen(true);
                      }}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <ConfirmModal
        show={open}
        title="Revoke token"
        confirmLabel="Revoke"
        variant="danger"
        busy={revoke.isPending}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
        testId="revoke-token-confirm"
      >
        <p className="mb-0">
          Revoke token <strong>{asked?.name}</strong>? Scripts using it stop working at once.
        </p>
        {showUser && asked && (
          <p className="small text-body-secondary mt-1 mb-0">
            User: <span className="font-monospace">{asked.username}</span>
          </p>
        )}
      </ConfirmModal>
    </>
  );
}
