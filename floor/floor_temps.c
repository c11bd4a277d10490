/* Which new files are temp files to the floor: the names every
 * atomic-save pattern gives them (common/temp_name.h, the shim's list
 * too), and in enforce mode the names the shim's mkstemp family made --
 * its cookied O_CREAT|O_EXCL opens of mkstemp's shape, notified there --
 * remembered as the shim remembers them, so that sed -i's temp file and
 * its rename fire what the shim fires. The cookie proves nothing: such
 * a name is silent only where no hook's path filter names it, so a
 * process presenting the cookie creates nothing a hook watches. */
#include "floor_int.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "../common/temp_name.h"

static struct hs_temp_ring shim_temps;

bool hs_fl_is_temp(const char *abs)
{
	return hs_temp_name(abs) || hs_temp_ring_has(&shim_temps, abs);
}

bool hs_fl_temp_silent(const struct hs_floor_ctx *x, const char *abs)
{
	if (hs_temp_name(abs))
		return !(hs_fscope_judge_temps(x->scope) &&
			 hs_fscope_protected(x->scope, abs));
	return hs_temp_ring_has(&shim_temps, abs) &&
	       !hs_fscope_protected(x->scope, abs);
}

void hs_fl_shim_mkstemp(const struct hs_floor_ctx *x,
			const struct hs_fl_call *c, uint64_t flags,
			const char *abs)
{
	struct stat sb;

	if (x->enforce && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) &&
	    c->n.data.args[5] == x->cookie && hs_tn_mkstemp_shape(abs) &&
	    lstat(abs, &sb) != 0)
		hs_temp_ring_add(&shim_temps, abs);
}
