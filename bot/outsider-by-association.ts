/*
 * Whether a comment's payload alone shows that its author cannot have any permission on the repository,
 * so a `/rescore` can be refused before any API call (issue #24 point 3). GitHub computes
 * author_association without a viewer, so it cannot see private organisation membership: an
 * organisation member with write access through a team shows as CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR or
 * NONE. Only on a personal repository (owner type User), where nobody but the owner and invited
 * collaborators has any permission, does any other association settle it; in an organisation's
 * repository the collaborator permission endpoint is asked. A MANNEQUIN (an imported placeholder
 * account) never has permission.
 */

const PERSONAL_REPOSITORY_HOLDERS: ReadonlySet<string> = new Set(["OWNER", "COLLABORATOR"]);

export function outsiderByAssociation(ownerType: string | undefined, association: string | undefined): boolean {
  if (association === undefined) return false;
  if (association === "MANNEQUIN") return true;
  return ownerType === "User" && !PERSONAL_REPOSITORY_HOLDERS.has(association);
}
