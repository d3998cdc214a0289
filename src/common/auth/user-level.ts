/** The user levels of the seed, highest first (docs/api/decisions.md §5). */
export const USER_LEVELS = ['Admin', 'Restricted Admin', 'Manager', 'Employee'] as const;
export type UserLevel = (typeof USER_LEVELS)[number];
