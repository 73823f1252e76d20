"""synagree.agreement.agree."""
