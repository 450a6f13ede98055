/* Shared by both folders. */
int shared_fn(void);
