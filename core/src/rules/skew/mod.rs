//! skew/: kubelet and control-plane versions against the version skew policy, hop by hop.

pub mod control_plane_spread;
pub mod kubelet_newer;
pub mod kubelet_too_old;

use crate::options::Profile;
use crate::version::OPENSHIFT_MINOR_OFFSET;

/// How many minors a kubelet on `kubelet_minor` may lag a control plane on `cp_minor` (DOMAIN section 1):
/// the policy's 3 (2 for kubelets older than 1.25), made stricter by the profile: kubeadm enforces 1 up to
/// kubeadm 1.28; OpenShift allows 2 on even OpenShift minors and 1 on odd ones.
pub fn allowed_lag(profile: Profile, kubelet_minor: u32, cp_minor: u32) -> u32 {
    let policy = if kubelet_minor >= 25 { 3 } else { 2 };
    let profile_limit = match profile {
        Profile::Kubeadm if cp_minor <= 28 => 1,
        Profile::Openshift => {
            if cp_minor.saturating_sub(OPENSHIFT_MINOR_OFFSET) % 2 == 0 {
                2
            } else {
                1
            }
        }
        _ => policy,
    };
    policy.min(profile_limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lag_limits() {
        assert_eq!(allowed_lag(Profile::Rke, 26, 29), 3);
        assert_eq!(allowed_lag(Profile::Rke, 24, 27), 2);
        assert_eq!(allowed_lag(Profile::Kubeadm, 26, 28), 1);
        assert_eq!(allowed_lag(Profile::Kubeadm, 26, 29), 3);
        // OpenShift 4.16 (1.29) is even: 2; 4.15 (1.28) is odd: 1.
        assert_eq!(allowed_lag(Profile::Openshift, 27, 29), 2);
        assert_eq!(allowed_lag(Profile::Openshift, 27, 28), 1);
    }
}
