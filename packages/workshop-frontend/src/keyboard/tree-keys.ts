/**
 * The keys of a tree view, as the WAI-ARIA tree pattern has them: what a key does to the focused item
 * of the console's object trees (`ValueView`). The view reads the item's state from the page and carries
 * out the action; the rules live here, apart from the page.
 */

/** The focused item as the keys see it. */
export interface TreeItemState {
  expandable: boolean;
  expanded: boolean;
  /** It is inside another item (not the tree's root). */
  hasParent: boolean;
}

export type TreeKeyAction =
  | { kind: "toggle" }
  | { kind: "move"; to: "next" | "previous" | "first" | "last" | "parent" | "first-child" }
  | { kind: "none" };

/** What `key` does to the focused item; `none` leaves the key to the page. */
export function treeKeyAction(key: string, item: TreeItemState): TreeKeyAction {
  switch (key) {
    case "ArrowDown":
      return { kind: "move", to: "next" };
    case "ArrowUp":
      return { kind: "move", to: "previous" };
    case "Home":
      return { kind: "move", to: "first" };
    case "End":
      return { kind: "move", to: "last" };
    case "ArrowRight":
      if (!item.expandable) return { kind: "none" };
      return item.expanded ? { kind: "move", to: "first-child" } : { kind: "toggle" };
    case "ArrowLeft":
      if (item.expandable && item.expanded) return { kind: "toggle" };
      return item.hasParent ? { kind: "move", to: "parent" } : { kind: "none" };
    case "Enter":
    case " ":
      return item.expandable ? { kind: "toggle" } : { kind: "none" };
    default:
      return { kind: "none" };
  }
}
