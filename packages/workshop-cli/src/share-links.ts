/** The public links of shares and run records, as the IDE builds them. */

export const shareUrl = (base: string, shareId: string): string => `${base}/s/${shareId}`;
export const recordUrl = (base: string, recordId: string): string => `${base}/r/${recordId}`;
