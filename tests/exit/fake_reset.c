/* The exit-path test's cudaDeviceReset, in an object of its own so that
 * the link-time wrapper (-Wl,--wrap=cudaDeviceReset) sees the call. */
int cudaDeviceReset(void);
void app_reset_device(void);

int cudaDeviceReset(void) {
  app_reset_device();
  return 0;
}
