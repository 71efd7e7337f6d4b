import { type AttributeInfo, type EntityTypeInfo, TREE_OPERATORS } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import { useTreePath } from "./use-tree.ts";

export type TreeFilterOperator = (typeof TREE_OPERATORS)[number];
const TREE_FILTERS: readonly TreeFilterOperator[] = TREE_OPERATORS;

interface TreeBreadcrumbsProps {
  context: string;
  type: EntityTypeInfo;
  asOf: string | null;
  selectedId: number | null;
  onSelect: (key: number) => void;
  /** Adds 'Descendants of <record>' or 'Ancestors of <record>' to the filter tabs. */
  onFilter: (operator: TreeFilterOperator, key: number) => void;
}

/**
 * The selected record's place in the tree, from its root, each step selectable; and the filters
 * 'Descendants of <record>' and 'Ancestors of <record>'.
 */
export function TreeBreadcrumbs(props: TreeBreadcrumbsProps) {
  const { context, type, asOf, selectedId } = props;
  const path = useTreePath(context, type.name, selectedId, asOf);
  const steps = path.data?.path ?? [];
  const record = steps.at(-1);
  if (selectedId === null || !record || record.entityKeyID !== selectedId) return null;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-2" data-testid="tree-breadcrumbs">
      <nav aria-label={`Place of ${record.label} in the ${type.uiName} tree`}>
        <ol className="breadcrumb mb-0">
          {steps.map((step) =>
            step === record ? (
              <li key={step.entityKeyID} className="breadcrumb-item active" aria-current="true">
                {step.label}
              </li>
            ) : (
              <li key={step.entityKeyID} className="breadcrumb-item">
                <Button
                  variant="link"
                  size="sm"
                  className="p-0 align-baseline"
                  onClick={() => props.onSelect(step.entityKeyID)}
                >
                  {step.label}
                </Button>
              </li>
            ),
          )}
        </ol>
      </nav>
      {TREE_FILTERS.map((operator) => (
        <Button
          key={operator}
          size="sm"
          variant="outline-secondary"
          onClick={() => props.onFilter(operator, record.entityKeyID)}
          data-testid={`tree-filter-${operator.toLowerCase()}`}
        >
          {`${operator} of ${record.label}`}
        </Button>
      ))}
    </div>
  );
}

/** The parent attribute of a type with a tree. */
export function parentAttribute(type: EntityTypeInfo): AttributeInfo | undefined {
  return type.hierarchy && type.attributes.find((a) => a.name === type.hierarchy?.parent);
}
